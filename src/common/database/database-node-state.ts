/** What a Galera node says of itself: its `wsrep_%` status variables that decide if it takes writes. */
export interface WsrepState {
  wsrep_ready: string;
  wsrep_cluster_status: string;
  wsrep_local_state_comment: string;
  wsrep_cluster_size: number;
}

/**
 * What the last check of a node of DB_HOSTS found: `usable` (it answers and, on Galera, is ready,
 * in the primary component and synced: only these take the process's writes), `not-ready` (it
 * answers but is not), `down` (no answer), `unchecked`. `wsrep` is null on a server without
 * Galera (`wsrep_on` off, or MySQL), which is usable whenever it answers.
 */
export interface NodeState {
  status: 'usable' | 'not-ready' | 'down' | 'unchecked';
  wsrep: WsrepState | null;
  message?: string;
}

/** The state a node's `wsrep_on` variable and `wsrep_%` status variables give. */
export function nodeStateOf(
  wsrepOn: string | undefined,
  status: Record<string, string>,
): NodeState {
  if (wsrepOn?.toUpperCase() !== 'ON') return { status: 'usable', wsrep: null };
  const wsrep: WsrepState = {
    wsrep_ready: status.wsrep_ready ?? 'OFF',
    wsrep_cluster_status: status.wsrep_cluster_status ?? 'Disconnected',
    wsrep_local_state_comment: status.wsrep_local_state_comment ?? '',
    wsrep_cluster_size: Number(status.wsrep_cluster_size ?? 0),
  };
  const problems = [
    wsrep.wsrep_ready !== 'ON' && `wsrep_ready ${wsrep.wsrep_ready}`,
    wsrep.wsrep_cluster_status !== 'Primary' && `cluster ${wsrep.wsrep_cluster_status}`,
    wsrep.wsrep_local_state_comment !== 'Synced' && `state ${wsrep.wsrep_local_state_comment}`,
  ].filter((p): p is string => typeof p === 'string');
  return problems.length === 0
    ? { status: 'usable', wsrep }
    : { status: 'not-ready', wsrep, message: problems.join(', ') };
}

/** The node writes go to: the first usable one in the process's order (-1: none is). */
export function preferredNode(states: readonly NodeState[]): number {
  return states.findIndex((s) => s.status === 'usable');
}
