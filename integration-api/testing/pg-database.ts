import pg from "pg";

/**
 * A PostgreSQL database of a benchmark's own, beside the one of an admin URL (trust auth on
 * 127.0.0.1 in this project): created fresh before a run, dropped after it.
 */
export class BenchDatabase {
  constructor(
    private readonly adminUrl: string,
    readonly name: string,
  ) {}

  /** The admin URL with this database in place of its own. */
  get url(): string {
    const url = new URL(this.adminUrl);
    url.pathname = `/${this.name}`;
    return url.toString();
  }

  async recreate(): Promise<void> {
    await this.drop();
    await this.onAdminDb(`create database ${this.name}`);
  }

  async drop(): Promise<void> {
    await this.onAdminDb(`drop database if exists ${this.name}`);
  }

  private async onAdminDb(sql: string) {
    const client = new pg.Client({ connectionString: this.adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }
}
