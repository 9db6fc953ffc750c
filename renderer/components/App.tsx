// The window: header, a pause banner, first-run help, the lanes, then jobs or the timeline, and the
// forms that add work. Until the first snapshot arrives it says what it is waiting for instead of
// drawing empty tables.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { formatClock } from '../format';
import { RELOADED_STALE, RESTARTED } from '../client/guarded-port';
import { isStale, useConnection } from '../stores/connection';
import { dismissNotice, useNotice } from '../stores/notice';
import { AddJobDialog } from './AddJobDialog';
import { LaneDialogs } from './LaneDialogs';
import { PauseBanner } from './PauseControl';
import { Header } from './Header';
import { HelpPanel } from './HelpPanel';
import { JobsPanel } from './JobsPanel';
import { JobsToolbar } from './JobsToolbar';
import { LanesPanel } from './LanesPanel';
import { TimelinePanel } from './TimelinePanel';

const TABS = [
  { id: 'jobs', label: 'Jobs' },
  { id: 'timeline', label: 'Scale timeline' },
] as const;
type TabId = (typeof TABS)[number]['id'];

export function App() {
  const loaded = useConnection((s) => s.loaded);
  const stale = useConnection(isStale);
  const [tab, setTab] = useState<TabId>('jobs');
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});

  // Arrow keys move between tabs, as in a native tab bar.
  const onTabKey = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    e.preventDefault();
    const next = TABS[(i + step + TABS.length) % TABS.length]!;
    setTab(next.id);
    tabRefs.current[next.id]?.focus();
  };

  return (
    <div className={stale ? 'app app-stale' : 'app'} data-stale={stale}>
      <Header />
      <StaleNotice />
      {loaded && (
        <div className="contents" inert={stale}>
          <PauseBanner />
        </div>
      )}
      <NoticeLine />
      {loaded && <HelpPanel />}
      {loaded ? (
        // From before: greyed (CSS), its clocks stopped (stores/clock.ts) and nothing in it usable.
        <main className="content" inert={stale} aria-disabled={stale || undefined}>
          <LanesPanel />
          <section className="work" aria-label="Jobs and scale timeline">
            <div className="work-bar">
              <div className="tabs" role="tablist" aria-label="Views" onKeyDown={onTabKey}>
                {TABS.map((t) => (
                  <button
                    key={t.id}
                    ref={(el) => {
                      tabRefs.current[t.id] = el;
                    }}
                    id={`tab-${t.id}`}
                    role="tab"
                    type="button"
                    className="tab"
                    aria-selected={tab === t.id}
                    aria-controls={`panel-${t.id}`}
                    tabIndex={tab === t.id ? 0 : -1}
                    onClick={() => setTab(t.id)}
                  >
                    {t.label}
                  </button>
                ))}
              </div>
              {tab === 'jobs' && <JobsToolbar />}
            </div>
            <div className="tab-panel" id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`}>
              {tab === 'jobs' ? <JobsPanel /> : <TimelinePanel />}
            </div>
          </section>
        </main>
      ) : (
        <Waiting />
      )}
      {loaded && <AddJobDialog />}
      {loaded && <LaneDialogs />}
    </div>
  );
}

/** How long a notice stays; a refusal stays until dismissed. */
const NOTICE_MS = 8_000;

/** What the last bulk action, pause or form did, in one line. */
function NoticeLine() {
  const notice = useNotice((s) => s.notice);
  useEffect(() => {
    if (!notice || notice.tone === 'bad') return;
    const timer = setTimeout(dismissNotice, NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  if (!notice) return null;
  return (
    <p className={`notice notice-${notice.tone}`} role={notice.tone === 'bad' ? 'alert' : 'status'} data-testid="notice">
      <span className="notice-text">{notice.text}</span>
      <button type="button" className="link-button" onClick={dismissNotice}>
        Dismiss
      </button>
    </p>
  );
}

/** While the engine is out of reach, say that the numbers on screen are from before. */
function StaleNotice() {
  const lostAt = useConnection((s) => s.lostAt);
  const loaded = useConnection((s) => s.loaded);
  const link = useConnection((s) => s.link);
  const keyKept = useConnection((s) => s.keyKept);
  if (link === 'gone') {
    return (
      <p className="stale" role="alert" data-testid="stale">
        {RESTARTED}
      </p>
    );
  }
  if (link === 'unauthorized' && loaded) {
    return (
      <p className="stale" role="alert" data-testid="stale">
        {keyKept ? RELOADED_STALE : 'This window’s key is no longer accepted. Open it again with `lanes open`, or from the tray menu.'}
      </p>
    );
  }
  if (lostAt === null || !loaded) return null;
  return (
    <p className="stale" role="status" data-testid="stale">
      Lost touch with the engine at {formatClock(lostAt)}; trying again. What you see is from then: its numbers are greyed, its clocks stopped,
      and nothing can be changed until it is back.
    </p>
  );
}

function Waiting() {
  const problem = useConnection((s) => s.problem);
  const link = useConnection((s) => s.link);
  const keyless = useConnection((s) => s.keyless);
  const keyKept = useConnection((s) => s.keyKept);
  return (
    <main className="content waiting" aria-busy={!problem}>
      {link === 'gone' ? (
        <p className="empty">{RESTARTED}</p>
      ) : link === 'unauthorized' && keyless ? (
        <p className="empty">
          This page was opened without its key (a bookmark or a copied address). Open the window with <code>lanes open</code>, or from the
          tray menu.
        </p>
      ) : link === 'unauthorized' && keyKept ? (
        <p className="empty">{RELOADED_STALE}</p>
      ) : link === 'unauthorized' ? (
        <p className="empty">
          This window’s token was not accepted. Open it again with <code>lanes open</code>.
        </p>
      ) : problem ? (
        <p className="empty">
          Can’t reach the Lanes engine. Start it with <code>lanes daemon</code> and open the address it prints.
          <br />
          <span className="muted">{problem}</span>
        </p>
      ) : (
        <p className="empty muted">Connecting to the Lanes engine…</p>
      )}
    </main>
  );
}
