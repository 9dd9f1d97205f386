import { apiRead } from "./api-read";
import { attention } from "./attention";
import { browser } from "./browser";
import { dashboardRead } from "./dashboard-read";
import { gates } from "./gates";
import { liveFirst } from "./live-first";
import { nameSearch } from "./name-search";
import { pageLoad } from "./page-load";
import { push } from "./push";
import { salesSummary } from "./sales-summary";
import { sync } from "./sync";
import type { BenchDef } from "./types";

/** Every benchmark of `npm run bench`, in the order they run. A new one is a file here and a line below. */
export const benches: BenchDef[] = [
  apiRead,
  salesSummary,
  dashboardRead,
  sync,
  pageLoad,
  nameSearch,
  liveFirst,
  attention,
  gates,
  browser,
  push,
];
