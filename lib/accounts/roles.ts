import type { MemberRole } from "@/db/schema/accounts";

/**
 * What each role may do in the dashboard. Viewers look; developers also manage keys, webhooks
 * and notes; owners also change settings and wallets and invite users. Secrets (the webhook
 * signing secret) are never shown to viewers. Every page and action checks this on the server.
 */
export type Permission = "view" | "edit-notes" | "manage-keys" | "manage-webhooks" | "see-secrets" | "manage-settings" | "manage-members";

const GRANTS: Record<MemberRole, readonly Permission[]> = {
  viewer: ["view"],
  developer: ["view", "edit-notes", "manage-keys", "manage-webhooks", "see-secrets"],
  owner: ["view", "edit-notes", "manage-keys", "manage-webhooks", "see-secrets", "manage-settings", "manage-members"],
};

export function can(role: MemberRole, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}
