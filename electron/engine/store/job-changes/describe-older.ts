// Rows written before summaries were stored get one, a thousand at a time, once; a flag remembers
// it is done, so later starts do not scan the table to find nothing.
import type { Db } from '../db.js';
import { describedSpec } from '../job-rows.js';
import type { JobStatements } from '../job-statements.js';

export function describeOlderRows(db: Db, s: JobStatements): void {
  if (s.flag.get('described')?.value === 1) return;
  for (let rows = s.undescribed.all(); rows.length > 0; rows = s.undescribed.all()) {
    db.transaction(() => {
      for (const r of rows) s.describe.run(describedSpec(r.spec), r.id);
    })();
  }
  s.setFlag.run('described', 1);
}
