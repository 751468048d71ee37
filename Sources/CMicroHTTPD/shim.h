#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
// libmicrohttpd for Swift. Swift cannot call C variadic functions, and MHD_start_daemon,
// MHD_get_daemon_info, MHD_get_connection_info and MHD_set_connection_option are all variadic:
// each static inline function below wraps one of them with a fixed signature.
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// Starts a daemon with an option array (the array must end with MHD_OPTION_END).
static inline struct MHD_Daemon *
CMicroHTTPD_start(unsigned int flags, uint16_t port, MHD_AccessHandlerCallback handler, void *handler_cls,
                  const struct MHD_OptionItem *options)
{
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon is bound to (the real one when 0 was asked for); 0 when unknown.
static inline uint16_t CMicroHTTPD_bound_port(struct MHD_Daemon *d)
{
    const union MHD_DaemonInfo *i = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return i ? i->port : 0;
}

/// How many connections the daemon has open right now.
static inline unsigned int CMicroHTTPD_current_connections(struct MHD_Daemon *d)
{
    const union MHD_DaemonInfo *i = MHD_get_daemon_info(d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return i ? i->num_connections : 0;
}

/// The peer address of a connection, or NULL.
static inline const struct sockaddr *CMicroHTTPD_client_address(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return i ? i->client_addr : NULL;
}

/// The size in bytes of the request line and header fields of the connection's current request; 0 when unknown.
static inline size_t CMicroHTTPD_request_header_size(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return i ? i->header_size : 0;
}

/// Sets the idle timeout (seconds) of one connection.
static inline enum MHD_Result CMicroHTTPD_set_connection_timeout(struct MHD_Connection *c, unsigned int seconds)
{
    return MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

#endif
