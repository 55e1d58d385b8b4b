import { z } from "zod";
import { emailField } from "@/lib/http/email-field";

/**
 * A person's name as the dashboard shows it (the Members list, the header): trimmed, 1 to 200
 * characters, without control characters (PostgreSQL refuses a NUL; a line break or an escape
 * has no place in a name) or the bidirectional overrides and isolates that reorder what is shown.
 */
export const UserNameSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters")
  .refine((v) => !/[\p{Cc}\u202A-\u202E\u2066-\u2069]/u.test(v), "must not contain control characters")
  // The same rule for the document's readers (and the fuzzer): Cc is U+0000-001F and U+007F-009F.
  .meta({ pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069]*$" });

/** POST /admin/v1/users: a dashboard user of a business (the first one, or any the operator adds). */
export const CreateUserSchema = z
  .strictObject({
    email: emailField,
    name: UserNameSchema.optional(),
    // Characters are counted as code points, as the document's minLength/maxLength are (an emoji is one).
    password: z
      .string()
      .refine((p) => [...p].length >= 10, "must be at least 10 characters")
      .refine((p) => [...p].length <= 128, "must be at most 128 characters")
      .meta({ minLength: 10, maxLength: 128 })
      .optional(),
    businessId: z.number().int().positive(),
    role: z.enum(["owner", "developer", "viewer"]).default("owner"),
  })
  .meta({ id: "CreateUser", description: "Without `password` one is generated and returned once." });
export type CreateUserInput = z.infer<typeof CreateUserSchema>;

/**
 * The user fields Better Auth writes (its databaseHooks, lib/accounts/auth.ts), whichever way a
 * write comes: the name and email by our rules, and no image (the product shows none).
 */
export const UserFieldsSchema = z.object({ name: UserNameSchema, email: CreateUserSchema.shape.email, image: z.null() }).partial();

/** POST /admin/v1/users/unlock: lifts the sign-in lockout of an email address. */
export const UnlockSignInSchema = z
  .strictObject({ email: emailField })
  .meta({ id: "UnlockSignIn", description: "The email address whose dashboard sign-in is to be unlocked." });
