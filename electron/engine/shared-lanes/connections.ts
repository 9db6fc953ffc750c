// The Redis connections of one shared lane, and whether Redis can be reached. Two connections
// with different manners: requests (queueing work, reading jobs) fail at once when Redis is away,
// so a person hears it instead of waiting; the worker side waits for Redis to come back, so a
// job that finished while it was away is still recorded when it returns. ioredis reconnects by
// itself, backing off to one try every few seconds.
//
// A Redis that stops answering without closing the connection (a stopped process, a network that
// drops packets, a laptop's Wi-Fi roaming) looks connected to ioredis for as long as the socket
// lives. So a ping goes out every second; one unanswered for NOT_ANSWERING_MS makes the lane as
// unreachable as a closed connection, from the moment that ping was sent.
import { isIP } from 'node:net';
import { Redis, type RedisOptions } from 'ioredis';
import { redactedRedisUrl, type RedisAddress } from '../../../shared/redis-url.js';

const CONNECT_TIMEOUT_MS = 5_000;
/** A request that Redis does not answer within this is refused rather than left hanging (`lanes add` included). */
export const COMMAND_TIMEOUT_MS = 5_000;
/** How often Redis is asked whether it answers, and how long an unanswered ask makes it "not answering". */
const PROBE_MS = 1_000;
export const NOT_ANSWERING_MS = 3_000;
const RECONNECT_MAX_MS = 5_000;
/** Redis' answers to a wrong password, an unknown or disabled user, or a user not allowed a command. */
const REFUSED = /WRONGPASS|NOAUTH|NOPERM|invalid password|user is disabled/i;

export function redisOptions(a: RedisAddress): RedisOptions {
  return {
    host: a.host,
    port: a.port,
    db: a.db,
    ...(a.username !== null ? { username: a.username } : {}),
    ...(a.password !== null ? { password: a.password } : {}),
    // Certificates are checked against the system's CAs (NODE_EXTRA_CA_CERTS adds one of your own).
    ...(a.tls ? { tls: isIP(a.host) ? {} : { servername: a.host } } : {}),
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (times: number) => Math.min(250 * times, RECONNECT_MAX_MS),
    // Names it in Redis' CLIENT LIST, so an operator can see what is connected.
    connectionName: 'lanes',
  };
}

export class LaneConnections {
  /** Requests: no waiting for a Redis that is away, nothing resent after a reconnect (an add must not happen twice). */
  readonly requests: Redis;
  /** Claiming and finishing jobs: waits for Redis to come back (BullMQ's workers require it). */
  readonly work: Redis;
  readonly redacted: string;
  private downSince: number | null = null;
  private lastError: string | null = null;
  private readonly waiters = new Set<() => void>();
  private readonly refusals = new Set<(why: string) => void>();
  /** Called when Redis stops being reachable: calls in flight stop waiting for it (work.ts). */
  private readonly onAway = new Set<() => void>();
  /** The ping on its way, since when; and since when Redis has not answered one, when it has not for NOT_ANSWERING_MS. */
  private probeSentAt: number | null = null;
  private silentSince: number | null = null;
  private lastProbeAt = Date.now();
  private readonly prober: NodeJS.Timeout;
  private wasUp = false;
  private closed = false;

  constructor(
    address: RedisAddress,
    /** Reachability changed either way. */
    private readonly moved: (reachable: boolean) => void,
  ) {
    this.redacted = redactedRedisUrl(address);
    const options = redisOptions(address);
    this.requests = new Redis({ ...options, enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: COMMAND_TIMEOUT_MS });
    this.work = new Redis({ ...options, maxRetriesPerRequest: null });
    for (const c of [this.requests, this.work]) {
      c.on('ready', () => this.check());
      c.on('close', () => this.check());
      c.on('end', () => this.check());
      // Without a listener ioredis prints each failed reconnect; the lane's status says it once.
      c.on('error', (error: Error) => {
        this.lastError = describe(error);
        if (REFUSED.test(this.lastError)) for (const told of this.refusals) told(this.lastError);
        this.check();
      });
    }
    this.prober = setInterval(() => this.probe(), PROBE_MS);
    this.prober.unref();
  }

  private get connected(): boolean {
    return this.requests.status === 'ready' && this.work.status === 'ready';
  }

  get reachable(): boolean {
    return this.connected && this.silentSince === null;
  }

  /** Connected, but Redis has not answered for a few seconds: stopped, or the network drops what is sent. */
  get notAnswering(): boolean {
    return this.connected && this.silentSince !== null;
  }

  /** A ping unless one is on its way; one that stays unanswered too long makes Redis not answering. */
  private probe(): void {
    const now = Date.now();
    // This engine was the one not answering (its event loop held up): an answer may be waiting to be read.
    const late = now - this.lastProbeAt > 2 * PROBE_MS;
    this.lastProbeAt = now;
    if (late) return;
    if (this.probeSentAt !== null) {
      if (this.silentSince === null && now - this.probeSentAt >= NOT_ANSWERING_MS && this.connected) {
        this.silentSince = this.probeSentAt;
        // This fault's own words: what an earlier outage said (a refused connection) is not why now.
        this.lastError = `no answer to a ping for ${NOT_ANSWERING_MS / 1000} s`;
        this.check();
      }
      return;
    }
    if (!this.connected) return;
    const sentAt = (this.probeSentAt = now);
    this.requests.ping().then(
      () => {
        if (this.probeSentAt === sentAt) this.probeSentAt = null;
        if (this.silentSince === null) return;
        this.silentSince = null;
        this.check();
      },
      // Timed out (COMMAND_TIMEOUT_MS) or the connection closed: the next one asks again.
      () => {
        if (this.probeSentAt === sentAt) this.probeSentAt = null;
      },
    );
  }

  /** `abandon` is called if Redis stops being reachable before `off` is; for calls that should not wait for it. */
  whileReachable(abandon: () => void): () => void {
    this.onAway.add(abandon);
    return () => this.onAway.delete(abandon);
  }

  get unreachableSince(): number | null {
    return this.downSince;
  }

  get error(): string | null {
    return this.downSince === null ? null : this.lastError;
  }

  /** Resolves once both connections are ready (at once if they are). */
  whenReachable(): Promise<void> {
    if (this.reachable) return Promise.resolve();
    return new Promise((resolve) => this.waiters.add(resolve));
  }

  /** Resolves with Redis' words when it refuses who we say we are (a wrong password or user): waiting longer will not help. */
  whenRefused(): { refused: Promise<string>; off(): void } {
    let told: (why: string) => void = () => {};
    const refused = new Promise<string>((resolve) => (told = resolve));
    this.refusals.add(told);
    return { refused, off: () => this.refusals.delete(told) };
  }

  /** Why a request cannot be served now, in words that name the Redis (never its password). */
  awayReason(): string {
    const at = this.downSince === null ? '' : new Date(this.downSince).toLocaleTimeString('en-GB');
    const since = this.downSince === null ? 'is still being connected to' : this.notAnswering ? `has not answered since ${at}` : `has been unreachable since ${at}`;
    return `Redis at ${this.redacted} ${since}${this.lastError ? ` (${this.lastError})` : ''}`;
  }

  private check(): void {
    // Closed on purpose: the lane is gone, and says nothing more.
    if (this.closed) return;
    if (this.reachable) {
      this.wasUp = true;
      // Answering again: the last outage's error says nothing of the next one.
      this.lastError = null;
      for (const wake of this.waiters) wake();
      this.waiters.clear();
      if (this.downSince === null) return;
      this.downSince = null;
      this.moved(true);
      return;
    }
    // A connection that was up closed or fell silent, or one never up failed: unreachable from that moment.
    if (this.downSince !== null || !(this.wasUp || this.lastError !== null)) return;
    this.downSince = this.silentSince ?? Date.now();
    if (!this.connected) this.silentSince = null;
    for (const abandon of [...this.onAway]) abandon();
    this.onAway.clear();
    this.moved(false);
  }

  disconnect(): void {
    this.closed = true;
    clearInterval(this.prober);
    this.requests.disconnect();
    this.work.disconnect();
  }
}

/** An error from the connection as one short line; ioredis' messages name the host and port, never the password. */
export function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  const text = (e?.message ?? String(error)).split('\n')[0]!.slice(0, 300);
  return e?.code && !text.includes(e.code) ? `${e.code}: ${text}` : text;
}
