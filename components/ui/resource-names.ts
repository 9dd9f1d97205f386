"use client";

import { useTranslations } from "next-intl";

/**
 * The sync worker's resources in the reader's words ("review queue", not `review_wristbands`); an
 * id the messages do not know is shown as it is. `list` joins several for a sentence.
 */
export function useResourceNames() {
  const t = useTranslations("syncResource");
  const name = (resource: string) => (t.has(resource) ? t(resource) : resource);
  return { name, list: (resources: string[]) => resources.map(name).join(", ") };
}
