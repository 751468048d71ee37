# ruby-saml (OneLogin::RubySaml, Debian's ruby-saml, unchanged) as a SAML service provider for the client tests
# (Tests/clients/test_ruby_saml.py; docs/saml.md, "Service providers"). Configured as ruby-saml's README configures an
# SP from an IdP's metadata URL: IdpMetadataParser#parse_remote, then the SP's entity ID and assertion consumer
# service. One JSON object a line on standard input, one answer a line on standard output:
#   {"do": "login", "relay_state": "..."}       -> {"url": the AuthnRequest over HTTP-Redirect, "id": its ID}
#   {"do": "response", "SAMLResponse": "...", "request_id": "..."}
#                                                -> {"valid": bool, "errors": [...], "nameid": ..., "attributes": {...}}
# Usage: ruby ruby_saml_sp.rb METADATA_URL SP_ENTITY_ID ACS_URL (SSL_CERT_FILE names the CA to trust).
require "json"
require "logger"
require "onelogin/ruby-saml"

# ruby-saml logs to standard output by default: the answers go there.
OneLogin::RubySaml::Logging.logger = Logger.new($stderr, level: Logger::WARN)

metadata_url, entity_id, acs_url = ARGV
settings = OneLogin::RubySaml::IdpMetadataParser.new.parse_remote(metadata_url)
settings.sp_entity_id = entity_id
settings.assertion_consumer_service_url = acs_url
settings.name_identifier_format = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"
settings.security[:want_assertions_signed] = true
settings.soft = true

$stdout.sync = true
$stdout.puts JSON.generate(ready: true, idp_entity_id: settings.idp_entity_id,
                           certificates: (settings.idp_cert_multi || {})[:signing]&.length || (settings.idp_cert ? 1 : 0))
$stdin.each_line do |line|
  command = JSON.parse(line)
  case command["do"]
  when "login"
    request = OneLogin::RubySaml::Authrequest.new
    url = request.create(settings, "RelayState" => command["relay_state"])
    $stdout.puts JSON.generate(url: url, id: request.uuid)
  when "response"
    response = OneLogin::RubySaml::Response.new(command["SAMLResponse"], settings: settings,
                                                matches_request_id: command["request_id"])
    valid = response.is_valid?
    answer = { valid: valid, errors: response.errors }
    if valid
      answer[:nameid] = response.nameid
      answer[:attributes] = response.attributes.all.to_h
    end
    $stdout.puts JSON.generate(answer)
  else
    $stdout.puts JSON.generate(error: "unknown command")
  end
end
