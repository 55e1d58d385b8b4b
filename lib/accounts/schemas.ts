import { z } from "zod";

/** POST /admin/v1/users: a dashboard user of a business (the first one, or any the operator adds). */
export const CreateUserSchema = z
  .strictObject({
    email: z.email("must be an email address such as owner@shop.example").max(254),
    name: z.string().trim().min(1).max(200).optional(),
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

/** POST /admin/v1/users/unlock: lifts the sign-in lockout of an email address. */
export const UnlockSignInSchema = z
  .strictObject({ email: z.email("must be an email address such as owner@shop.example").max(254) })
  .meta({ id: "UnlockSignIn", description: "The email address whose dashboard sign-in is to be unlocked." });
