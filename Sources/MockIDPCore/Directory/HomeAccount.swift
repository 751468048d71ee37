/// Where a user's account lives: the tenant and object ID that `client_info` names (`uid`, `utid`, so MSAL's
/// `home_account_id`) and the name the user signs in with there.
struct HomeAccount: Sendable, Equatable {
    var tenantID: String
    var objectID: String
    var username: String
}
