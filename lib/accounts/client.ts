"use client";

import { createAuthClient } from "better-auth/react";
import { twoFactorClient } from "better-auth/client/plugins";

/** The browser's client of /api/auth (same origin): sign-in, the second step, sign-out, 2FA setup. */
export const authClient = createAuthClient({ plugins: [twoFactorClient()] });
