// SPDX-License-Identifier: MIT
// duckdb_run.js DBFILE < SQL: runs the statements of standard input in DuckDB (npm @duckdb/node-api,
// the engine the `duckdb` command line embeds) on the database file DBFILE, one after the other, as
// `duckdb DBFILE < SQL` does; prints each statement's rows as one JSON line (an array of objects,
// numbers as JSON text where JavaScript's would round). An error: "duckdb: statement N: MESSAGE" on
// stderr and exit status 1. Used by tests/e2e/fleet_duckdb.sh as the `duckdb` command.
'use strict';
const path = require('path');
const api = require(path.join(process.env.NPM_DIR, 'node_modules', '@duckdb', 'node-api'));

async function main() {
	const sql = require('fs').readFileSync(0, 'utf8');
	const db = await api.DuckDBInstance.create(process.argv[2]);
	const con = await db.connect();
	const st = await con.extractStatements(sql);
	for (let i = 0; i < st.count; i++) {
		try {
			const p = await st.prepare(i);
			const r = await p.runAndReadAll();
			console.log(JSON.stringify(r.getRowObjectsJson()));
		} catch (e) {
			console.error('duckdb: statement ' + (i + 1) + ': ' + e.message.split('\n')[0]);
			process.exit(1);
		}
	}
}
main().catch((e) => { console.error('duckdb: ' + e.message); process.exit(1); });
