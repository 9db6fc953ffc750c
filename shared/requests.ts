// Every request a client can make of the engine, typed once. The HTTP routes, the Electron IPC
// channel, the CLI and the window's client are all derived from this table, so adding or changing
// a request shows up everywhere at compile time.
import type { z } from 'zod';
import * as s from './schemas.js';
import type { Job, JobPage, LaneStatus, LaneTimeline, LogChunk, ScaleEvent, Status } from './model.js';

interface Route<I extends z.ZodType, O> {
  method: 'GET' | 'POST' | 'DELETE';
  /** `:id` and `:name` segments are filled from the input of the same name. */
  path: string;
  input: I;
  /** Phantom: carries the output type; never set at run time. */
  output?: O;
}

function route<I extends z.ZodType, O>(method: Route<I, O>['method'], path: string, input: I): Route<I, O> {
  return { method, path, input };
}

export const requests = {
  status: route<typeof s.emptyInput, Status>('GET', '/api/status', s.emptyInput),
  addJob: route<typeof s.addJobInput, { id: number }>('POST', '/api/jobs', s.addJobInput),
  addJobs: route<typeof s.addJobsInput, { ids: number[] }>('POST', '/api/jobs/batch', s.addJobsInput),
  listJobs: route<typeof s.listJobsInput, JobPage>('GET', '/api/jobs', s.listJobsInput),
  job: route<typeof s.jobRef, Job>('GET', '/api/jobs/:id', s.jobRef),
  logTail: route<typeof s.logTailInput, LogChunk>('GET', '/api/jobs/:id/log', s.logTailInput),
  cancel: route<typeof s.jobRef, Job>('POST', '/api/jobs/:id/cancel', s.jobRef),
  retry: route<typeof s.jobRef, Job>('POST', '/api/jobs/:id/retry', s.jobRef),
  setCap: route<typeof s.setCapInput, LaneStatus>('POST', '/api/lanes/:lane/cap', s.setCapInput),
  addLane: route<typeof s.addLaneInput, LaneStatus>('POST', '/api/lanes', s.addLaneInput),
  removeLane: route<typeof s.removeLaneInput, { removed: string }>('DELETE', '/api/lanes/:name', s.removeLaneInput),
  scaleEvents: route<typeof s.scaleEventsInput, ScaleEvent[]>('GET', '/api/scale-events', s.scaleEventsInput),
  timeline: route<typeof s.timelineInput, LaneTimeline[]>('GET', '/api/timeline', s.timelineInput),
} as const;

export type RequestMap = typeof requests;
export type RequestName = keyof RequestMap;
/** What a caller passes (defaults optional). */
export type RequestInput<K extends RequestName> = z.input<RequestMap[K]['input']>;
/** What the engine receives after validation (defaults filled). */
export type ParsedInput<K extends RequestName> = z.output<RequestMap[K]['input']>;
export type RequestOutput<K extends RequestName> = NonNullable<RequestMap[K]['output']>;

/** The one shape of a client, whatever carries it (HTTP, IPC, in-process). */
export type LanesClient = {
  [K in RequestName]: (input: RequestInput<K>) => Promise<RequestOutput<K>>;
};

/** The engine side: the same names, validated input in. */
export type LanesHandlers = {
  [K in RequestName]: (input: ParsedInput<K>) => RequestOutput<K> | Promise<RequestOutput<K>>;
};

/** An error the engine means the caller to read: bad input, unknown lane, a refused change. */
export interface LanesErrorBody {
  error: {
    code: 'bad_request' | 'not_found' | 'conflict' | 'unauthorized' | 'forbidden' | 'too_large' | 'internal';
    message: string;
    /** The input field at fault, when there is one. */
    field?: string;
  };
}
