import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { CreateUserSchema, UnlockSignInSchema } from "@/lib/accounts/schemas";
import { SetPasswordSchema } from "@/lib/accounts/set-password";
import { adminErrors, envelopeOf, jsonBody, stateConflict, success } from "./components";

export const CreatedUserSchema = z
  .strictObject({
    userId: z.string(),
    email: z.string(),
    created: z.boolean().meta({ description: "False when the email already had an account: it was added to the business (or given the role) and keeps its password." }),
    password: z.string().nullable().meta({ description: "The generated password, shown this once; null when one was given or the user existed." }),
    businessId: z.number().int(),
    role: z.enum(["owner", "developer", "viewer"]),
    signInUrl: z.string().meta({ description: "Where the user signs in to the merchant dashboard." }),
  })
  .meta({ id: "CreatedUser" });

const createdUserEnvelope = envelopeOf(CreatedUserSchema, "CreatedUserEnvelope");

export const UnlockedSignInSchema = z
  .strictObject({
    email: z.string().meta({ description: "The address, as sign-in counts it (lowercased)." }),
    wasLocked: z.boolean().meta({ description: "Whether its sign-in was locked; its count of failures is cleared either way." }),
  })
  .meta({ id: "UnlockedSignIn" });

export const PasswordSetSchema = z
  .strictObject({
    userId: z.string(),
    email: z.string().meta({ description: "The user's email, lowercased." }),
    password: z.string().nullable().meta({ description: "The generated password, shown this once; null when one was given." }),
    sessionsEnded: z.number().int().min(0).meta({ description: "How many of the user's sessions ended: the user signs in again everywhere." }),
  })
  .meta({ id: "PasswordSet" });

export const userPaths: ZodOpenApiPathsObject = {
  "/admin/v1/users": {
    post: {
      tags: ["Admin"],
      security: [{ adminBearer: [] }],
      operationId: "adminCreateUser",
      summary: "Create a dashboard user",
      description:
        "Creates a merchant dashboard user of a business with a role (`owner` by default; `developer`, `viewer`), or adds an existing user to it. Without `password` one is generated and returned once. An existing user keeps their password: a `password` for one is refused (409); `POST /admin/v1/users/password` sets it. Owners then invite further users from the dashboard.",
      requestBody: jsonBody(CreateUserSchema, { description: "The user.", example: { email: "owner@shop.example", businessId: 1, role: "owner" } }),
      responses: {
        201: success("The new user, with the generated password if any.", createdUserEnvelope),
        200: success("An existing user, added to the business.", createdUserEnvelope),
        ...adminErrors(400, 401, 413, 415),
        409: stateConflict("The email already has an account and a `password` was given: this operation does not change a password (`POST /admin/v1/users/password` does)."),
      },
    },
  },
  "/admin/v1/users/password": {
    post: {
      tags: ["Admin"],
      security: [{ adminBearer: [] }],
      operationId: "adminSetUserPassword",
      summary: "Set a dashboard user's password",
      description:
        "Sets the password of the dashboard user with this email (a forgotten or leaked one). Without `password` one is generated and returned once. Every session of the user ends. A sign-in lockout of the address stays until it lapses or `POST /admin/v1/users/unlock` lifts it.",
      requestBody: jsonBody(SetPasswordSchema, { description: "The user, and the new password if you choose it.", example: { email: "owner@shop.example" } }),
      responses: {
        200: success("The user, with the generated password if any.", envelopeOf(PasswordSetSchema, "PasswordSetEnvelope")),
        ...adminErrors(400, 401, 404, 413, 415),
      },
    },
  },
  "/admin/v1/users/unlock": {
    post: {
      tags: ["Admin"],
      security: [{ adminBearer: [] }],
      operationId: "adminUnlockSignIn",
      summary: "Unlock an email address's dashboard sign-in",
      description:
        "Too many wrong passwords for one email address lock its sign-in for `SIGN_IN_LOCKOUT_MINUTES`, whether or not a user has it. This lifts the lock at once and clears the address's count of failures.",
      requestBody: jsonBody(UnlockSignInSchema, { description: "The address.", example: { email: "owner@shop.example" } }),
      responses: {
        200: success("The address, and whether it was locked.", envelopeOf(UnlockedSignInSchema, "UnlockedSignInEnvelope")),
        ...adminErrors(400, 401, 413, 415),
      },
    },
  },
};
