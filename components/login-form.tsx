"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import type { FormEvent } from "react";
import { useErrorText } from "@/components/ui/error-text";
import { useWrite } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import { safeNextPath } from "@/lib/shared/safe-next";

/** Every control of the sign-in page is a 44 px target, as everywhere in the console on a phone. */
const fieldClass = "mt-1 min-h-11 w-full rounded border border-slate-300 px-3 py-2 max-md:text-base";

export function LoginForm({ next }: { next?: string }) {
  const t = useTranslations("login");
  const router = useRouter();
  const errorText = useErrorText();
  // The refusal is shown in the page's language (a wrong password, a locked account, no connection).
  const signIn = useWrite(endpoints.auth.login, {
    onSuccess: (answer) => {
      // Checked on the server already; checked again here, where the navigation happens.
      router.replace(safeNextPath(next) ?? answer.home ?? "/");
      router.refresh();
    },
  });
  const error = signIn.error;
  const pending = signIn.isPending;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => String(form.get(name) ?? "");
    await signIn.send({ body: { username: field("username"), password: field("password") } });
  }

  return (
    <form onSubmit={submit} className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <div>
        <label htmlFor="username" className="block text-sm font-medium">
          {t("username")}
        </label>
        <input id="username" name="username" autoComplete="username" required className={fieldClass} />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium">
          {t("password")}
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className={fieldClass}
        />
      </div>
      {error != null && (
        <p role="alert" className="rounded bg-red-50 px-3 py-2 text-sm text-red-800">
          {errorText(error)}
        </p>
      )}
      <button
        type="submit"
        disabled={pending}
        className="min-h-11 w-full rounded bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
      >
        {pending ? t("signingIn") : t("signIn")}
      </button>
    </form>
  );
}
