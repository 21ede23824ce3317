import type { ByteBudget } from '../../common/net/bounded-body';
import type { OutboundTargetPolicy } from '../../common/net/outbound-target';
import type { Span } from '../availability';
import type { BusySourceType } from './busy-source.entity';

/** What reading a source came to: unchanged, or read whole (its texts handed to `onText`). */
export type SourceRead = { kind: 'unchanged' } | { kind: 'read'; versionTag: string | null };

/** A source as a sync reads it, its password unsealed. */
export interface SourceToRead {
  type: BusySourceType;
  url: string;
  username: string;
  password: string;
}

export interface ReadOptions {
  policy: OutboundTargetPolicy;
  signal: AbortSignal;
  /** What the sync may read from the source, all its answers together (CALENDAR_SYNC_MAX_BYTES). */
  budget: ByteBudget;
  /** The source's tag when it was last read whole; null to read it whatever it says. */
  knownTag: string | null;
  /** The span whose events a CalDAV time-range REPORT asks for. */
  window: Span;
  /** Each iCalendar text as it is read, so that none is kept longer; a throw ends the read. */
  onText: (text: string) => void;
}

export const USER_AGENT = 'scheduling-service-calendar-sync/1.0';

export function authorization(source: SourceToRead): Record<string, string> {
  if (source.username === '' && source.password === '') return {};
  const basic = Buffer.from(`${source.username}:${source.password}`).toString('base64');
  return { authorization: `Basic ${basic}` };
}
