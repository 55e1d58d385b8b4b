"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/accounts/session";
import { buttonClass, describedBy, errorsFor, FieldError, inputClass } from "../developers/form-controls";

export type Preview = { family: string; key: string; network: string; addresses: { index: number; path: string; address: string }[] };
export type PreviewAction = (businessId: number, input: { family: string; key: string }) => Promise<ActionResult<Preview>>;

const NETWORK_NAMES: Record<string, string> = { main: "mainnet", test: "testnet", regtest: "regtest" };

/** The state the settings form keeps per wallet key: what is typed, and whether its preview was confirmed. */
export type KeyState = { value: string; preview: Preview | null; confirmed: boolean };

/**
 * One wallet's extended public key: typed or pasted, then "Show addresses" derives the first
 * receiving addresses (on the server, with the checks saving makes) for the merchant to compare
 * with their wallet's own receive addresses, and a tick confirms they match. Editing the key
 * clears the preview and the confirmation.
 */
export function WalletKeyField(props: {
  businessId: number;
  family: string;
  path: string;
  saved: string;
  state: KeyState;
  onChange: (next: KeyState) => void;
  errors: string[];
  preview: PreviewAction;
}) {
  const { businessId, family, path, saved, state, onChange, preview } = props;
  const [pending, start] = useTransition();
  const [previewErrors, setPreviewErrors] = useState<string[]>([]);
  const id = `key-${family}`;
  const changed = state.value.trim() !== saved;
  const errors = [...previewErrors, ...props.errors];

  function show() {
    start(async () => {
      const r = await preview(businessId, { family, key: state.value.trim() });
      if (r.ok && r.data) {
        setPreviewErrors([]);
        onChange({ ...state, preview: r.data, confirmed: false });
      } else if (!r.ok) {
        const messages = errorsFor(r.fieldErrors, `extendedPublicKeys.${family}`);
        setPreviewErrors(messages.length ? messages : [r.error]);
        onChange({ ...state, preview: null, confirmed: false });
      }
    });
  }

  return (
    <div className="rounded-lg p-3 ring-1 ring-slate-200" data-testid={`wallet-key-${family}`}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {family} <span className="font-normal text-slate-600">account key ({path})</span>
      </label>
      <textarea
        id={id}
        rows={2}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        value={state.value}
        onChange={(e) => {
          setPreviewErrors([]);
          onChange({ value: e.target.value, preview: null, confirmed: false });
        }}
        className={`${inputClass} break-all font-mono text-xs`}
        placeholder={saved ? undefined : "none: paste the xpub/zpub your wallet exports"}
        {...describedBy(`${id}-error`, errors)}
      />
      <FieldError id={`${id}-error`} messages={errors} />
      {changed && state.value.trim() === "" ? <p className="mt-1 text-sm text-amber-900">Saving removes this key: {family} coins can no longer be paid to a live business.</p> : null}
      {changed && state.value.trim() !== "" ? (
        <div className="mt-2 space-y-2">
          <button type="button" disabled={pending} onClick={show} className={buttonClass.secondary}>
            Show addresses<span className="sr-only"> of the {family} key</span>
          </button>
          {state.preview ? (
            <div className="rounded-lg bg-slate-50 p-3" data-testid={`address-preview-${family}`}>
              <p className="text-sm text-slate-800">
                The first receiving addresses ({NETWORK_NAMES[state.preview.network] ?? state.preview.network}). Check that your wallet shows the same ones:
              </p>
              <ol className="mt-2 space-y-1">
                {state.preview.addresses.map((a) => (
                  <li key={a.index} className="text-xs">
                    <span className="text-slate-600">{a.path}</span>{" "}
                    <code className="break-all font-mono text-slate-900" data-testid="preview-address">{a.address}</code>
                  </li>
                ))}
              </ol>
              <label className="mt-3 flex min-h-10 items-center gap-2 text-sm font-medium text-slate-900">
                <input type="checkbox" className="size-5" checked={state.confirmed} onChange={(e) => onChange({ ...state, confirmed: e.target.checked })} />
                These addresses match my wallet
              </label>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
