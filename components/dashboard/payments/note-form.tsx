"use client";

import { useActionState, useState } from "react";
import type { ActionResult } from "@/lib/accounts/session";

type NoteAction = (prev: ActionResult<{ note: string }> | null, form: FormData) => Promise<ActionResult<{ note: string }>>;

/** The note's limit in the API's schema (NoteRequestSchema); the server checks it, this only counts. */
const NOTE_MAX = 256;

/**
 * The internal note: a form for owners and developers (the server action checks the role again
 * and the note with the API's schema, whose message appears under the field), plain text for
 * viewers.
 */
export function NoteForm({ note, canEdit, action }: { note: string | null; canEdit: boolean; action: NoteAction }) {
  const [state, submit, pending] = useActionState(action, null);
  // Controlled: React resets a form's uncontrolled fields after its action, which would throw
  // away a note the server refused (too long) along with its error.
  const [value, setValue] = useState(note ?? "");
  const length = value.length;
  if (!canEdit) {
    return (
      <div>
        <p className="whitespace-pre-wrap text-sm text-slate-900" data-testid="note-text">{note || "No note."}</p>
        <p className="mt-2 text-sm text-slate-600">Only owners and developers can change the note.</p>
      </div>
    );
  }
  const errors = state && !state.ok ? (state.fieldErrors?.note ?? []) : [];
  return (
    <form action={submit} className="space-y-2">
      <label htmlFor="note" className="block text-sm font-medium text-slate-800">Internal note (visible to your team only)</label>
      <textarea
        id="note"
        name="note"
        rows={3}
        value={value}
        onChange={(e) => setValue(e.currentTarget.value)}
        aria-invalid={errors.length ? true : undefined}
        aria-describedby={`note-count${errors.length ? " note-error" : ""}`}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600 aria-invalid:border-red-700"
      />
      <p id="note-count" className={`text-xs ${length > NOTE_MAX ? "text-red-800" : "text-slate-600"}`}>
        {length} of {NOTE_MAX} characters
      </p>
      {errors.length ? (
        <p id="note-error" className="text-sm text-red-800">Note {errors.join("; ")}</p>
      ) : null}
      <div aria-live="polite" className="text-sm">
        {state?.ok ? <p className="text-emerald-800">{state.message}</p> : null}
        {state && !state.ok && !errors.length ? <p role="alert" className="text-red-800">{state.error}</p> : null}
      </div>
      <button type="submit" disabled={pending} className="rounded-lg bg-indigo-700 px-4 py-2 font-semibold text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700 disabled:opacity-60">
        {pending ? "Saving…" : "Save note"}
      </button>
    </form>
  );
}
