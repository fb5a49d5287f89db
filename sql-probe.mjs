import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
const dir = process.argv[2];
const inst = await DuckDBInstance.create(':memory:');
const c = await inst.connect();
for (const t of ['payers','lobs','policies','applicability','code_links','catalogue'])
  await c.run(`CREATE VIEW ${t} AS SELECT * FROM read_parquet('${dir}/${t}.parquet')`);
await c.run(`CREATE TABLE claims AS SELECT * FROM read_json_auto('${process.argv[3]}', format='newline_delimited', columns={line:'INTEGER',procedure:'VARCHAR',diagnosis:'VARCHAR',state:'VARCHAR',lob:'VARCHAR',payer:'VARCHAR',date:'VARCHAR'})`);
const r = await c.runAndReadAll(readFileSync('docs/sql/check.sql','utf8'));
for (const row of r.getRowObjectsJson()) console.log([row.line,row.payer_id??'',row.lob??'',row.verdict].join(','));
