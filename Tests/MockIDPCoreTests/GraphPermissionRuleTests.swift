import MockIDPCore
import Testing

@Suite struct GraphPermissionRuleTests {
    @Test("User.Read reads the signed-in user, not the directory; User.Read.All as an app role reads users")
    func users() {
        let user = GraphPermissionRule.rule(for: .user(.me))
        #expect(user.allows(["User.Read"], delegated: true, aboutSelf: true))
        #expect(!user.allows(["User.Read"], delegated: true, aboutSelf: false))
        #expect(user.allows(["User.ReadBasic.All"], delegated: true, aboutSelf: false))
        let list = GraphPermissionRule.rule(for: .users)
        #expect(list.allows(["User.Read.All"], delegated: false, aboutSelf: false))
        #expect(!list.allows(["User.ReadBasic.All"], delegated: false, aboutSelf: false))
        #expect(!list.allows(["Mail.Read"], delegated: true, aboutSelf: false))
    }

    @Test("memberOf of the signed-in user takes User.Read; an app needs Directory.Read.All")
    func memberOf() {
        let rule = GraphPermissionRule.rule(for: .memberOf(.me, transitive: false))
        #expect(rule.allows(["User.Read"], delegated: true, aboutSelf: true))
        #expect(rule.allows(["Directory.Read.All"], delegated: false, aboutSelf: false))
        #expect(!rule.allows(["User.Read.All"], delegated: false, aboutSelf: false))
        #expect(GraphPermissionRule.rule(for: .memberOf(.me, transitive: true)).allows(["GroupMember.Read.All"], delegated: false, aboutSelf: false))
    }

    @Test("getMemberGroups needs a pair of permissions, or Directory.Read.All")
    func pairs() {
        let rule = GraphPermissionRule.rule(for: .membership(.me, .getMemberGroups))
        #expect(!rule.allows(["User.Read.All"], delegated: true, aboutSelf: true))
        #expect(rule.allows(["User.ReadBasic.All", "GroupMember.Read.All"], delegated: true, aboutSelf: true))
        #expect(rule.allows(["Directory.Read.All"], delegated: false, aboutSelf: false))
        #expect(GraphPermissionRule.rule(for: .membership(.me, .getMemberObjects)).allows(["User.Read"], delegated: true, aboutSelf: true))
        #expect(rule.described(delegated: false, aboutSelf: false) == "User.Read.All and GroupMember.Read.All, User.Read.All and Group.Read.All, Directory.Read.All")
    }

    @Test("groups take GroupMember.Read.All either way; organization takes User.Read when delegated")
    func groupsAndOrganization() {
        #expect(GraphPermissionRule.rule(for: .groups).allows(["GroupMember.Read.All"], delegated: false, aboutSelf: false))
        #expect(!GraphPermissionRule.rule(for: .group("x")).allows(["User.Read"], delegated: true, aboutSelf: false))
        #expect(GraphPermissionRule.rule(for: .organization).allows(["User.Read"], delegated: true, aboutSelf: false))
        #expect(!GraphPermissionRule.rule(for: .organization).allows(["User.Read.All"], delegated: false, aboutSelf: false))
    }
}
