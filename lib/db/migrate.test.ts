import { describe, expect, it } from "vitest";
import { openTestDb, testDatabaseUrls } from "../testing/test-db";
import { splitStatements } from "./sql-files";

describe("splitStatements", () => {
  it("splits on ';' at line end and drops comment lines", () => {
    expect(splitStatements("-- a comment\ncreate table a (x int);\ncreate table b (y int);\n")).toEqual([
      "create table a (x int)",
      "create table b (y int)",
    ]);
  });

  it("keeps dollar-quoted bodies whole, tagged or not", async () => {
    const sql = `create function f() returns int language plpgsql as $$
declare n int;
begin
  n := 1;
  return n;
end $$;
create function g() returns text language plpgsql as $body$
begin
  return 'a;';
end $body$;
select 1;
`;
    const statements = splitStatements(sql);
    expect(statements).toHaveLength(3);
    expect(statements[0]).toMatch(/^create function f\(\)[\s\S]*end \$\$$/);
    expect(statements[1]).toMatch(/^create function g\(\)[\s\S]*end \$body\$$/);
    const db = await openTestDb(testDatabaseUrls.dashboard ?? testDatabaseUrls.api);
    try {
      for (const s of statements) await db.query(s);
      expect(await db.query("select f() as f, g() as g")).toEqual([{ f: 1, g: "a;" }]);
    } finally {
      await db.close();
    }
  });
});
