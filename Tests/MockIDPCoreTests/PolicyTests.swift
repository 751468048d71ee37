import MockIDPCore
import Testing

@Suite struct PolicyTests {
    @Test("the kind of a policy follows from its name, without regard to case", arguments: [
        ("B2C_1_signupsignin", PolicyKind.signUpOrSignIn), ("B2C_1A_SIGNUP_SIGNIN", .signUpOrSignIn), ("b2c_1_susi", .signUpOrSignIn),
        ("B2C_1_SignUpOrSignIn", .signUpOrSignIn), ("B2C_1_passwordreset", .passwordReset), ("B2C_1A_Password_Reset", .passwordReset),
        ("B2C_1_pwdreset", .passwordReset), ("B2C_1_SSPR", .passwordReset), ("B2C_1_profileedit", .profileEdit),
        ("B2C_1A_PROFILE_EDIT", .profileEdit), ("B2C_1_signin", .signIn), ("B2C_1_sign_in", .signIn), ("B2C_1_signup", .signUp),
        ("B2C_1A_sign_up", .signUp), ("B2C_1A_Login", .signIn), ("B2C_1_ROPC_Auth", .ropc), ("B2C_1A_ropc_signin", .ropc),
    ])
    func kindFromName(name: String, kind: PolicyKind) {
        #expect(Policy(name: name).kind == kind)
        #expect(Policy(name: name).pathName == name.lowercased())
        #expect(Policy(name: name).isCustomPolicy == name.lowercased().hasPrefix("b2c_1a_"))
    }

    @Test("custom policies are the B2C_1A_ ones, in any case")
    func customPolicies() {
        #expect(Policy(name: "B2C_1A_signup_signin").isCustomPolicy && Policy(name: "b2c_1a_x").isCustomPolicy)
        #expect(!Policy(name: "B2C_1_signupsignin").isCustomPolicy && !Policy(name: "B2C_1_A").isCustomPolicy)
    }

    @Test("only sign-up flows offer sign-up; reset and sign-up flows do not sign existing users in")
    func offers() {
        #expect(PolicyKind.signUpOrSignIn.offersSignUp && PolicyKind.signUpOrSignIn.offersSignIn)
        #expect(!PolicyKind.signIn.offersSignUp && !PolicyKind.passwordReset.offersSignIn && !PolicyKind.signUp.offersSignIn)
        #expect(PolicyKind.profileEdit.offersSignIn && !PolicyKind.profileEdit.offersSignUp)
        #expect(!PolicyKind.ropc.offersSignIn && !PolicyKind.ropc.offersSignUp, "ROPC has no pages")
    }
}
