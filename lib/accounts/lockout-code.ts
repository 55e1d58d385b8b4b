/** The error code of a sign-in refused because its email address is locked (lib/accounts/sign-in-lockout.ts); shared with the sign-in form, so kept free of server imports. */
export const LOCKED_CODE = "SIGN_IN_LOCKED";
