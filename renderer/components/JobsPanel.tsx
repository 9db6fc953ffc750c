// Jobs: the list and the open job's detail — beside the list when the window has room, else a
// view of its own over the window; above them, when there is something to act on, the bulk bar.
// The toolbar above them is JobsToolbar, in the tab bar.
import { useJobs } from '../stores/jobs';
import { BulkBar } from './BulkBar';
import { JobDetail } from './JobDetail';
import { JobList } from './JobList';
import { ROOMY, useMediaQuery } from './useMediaQuery';

export function JobsPanel() {
  const selected = useJobs((s) => s.selectedId);
  const roomy = useMediaQuery(ROOMY);

  return (
    <div className={`jobs${selected !== null && roomy ? ' jobs-with-detail' : ''}`}>
      <BulkBar />
      <div className="jobs-body">
        <JobList />
        {selected !== null && <JobDetail asPage={!roomy} />}
      </div>
    </div>
  );
}
