import { describe, it } from "vitest";
import { runInProcess } from "../helpers/run-cli.js";

/** The analyst views' tables on the bundled data, at 80 and 120 columns (snapshots). */
describe.concurrent("analyst view tables", () => {
  it.for(
    [
      ["code", "CPT:97110"],
      ["matrix", "--code", "CPT:97110"],
      ["matrix", "--code", "CPT:97110", "--state", "CA,NY,TX"],
      ["versions", "aetna/cpb/0140"],
      ["diff", "cms-lcd/L33718"],
      ["updates", "--days", "60", "--changes"],
    ].map((args) => [args.join(" "), args] as const),
  )("%s", async ([, args], { expect: expectHere }) => {
    for (const columns of ["80", "120"]) {
      const r = await runInProcess(["--quiet", ...args], {
        env: { COLUMNS: columns, NO_COLOR: "1" },
      });
      expectHere(r.exitCode).toBe(0);
      for (const line of r.stdout.split("\n"))
        expectHere(line.length, line).toBeLessThanOrEqual(Number(columns));
      expectHere(r.stdout).toMatchSnapshot(`${columns} columns`);
    }
  });
});
