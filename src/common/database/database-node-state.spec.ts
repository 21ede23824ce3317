import { type NodeState, nodeStateOf, preferredNode } from './database-node-state';

const synced = {
  wsrep_ready: 'ON',
  wsrep_cluster_status: 'Primary',
  wsrep_local_state_comment: 'Synced',
  wsrep_cluster_size: '3',
};

describe('a database node’s state (DB_HOSTS)', () => {
  it('takes writes when ready, in the primary component and synced', () => {
    expect(nodeStateOf('ON', synced)).toEqual({
      status: 'usable',
      wsrep: { ...synced, wsrep_cluster_size: 3 },
    });
  });

  it.each([
    [
      { wsrep_ready: 'OFF', wsrep_cluster_status: 'non-Primary' },
      'wsrep_ready OFF, cluster non-Primary',
    ],
    [{ wsrep_local_state_comment: 'Joined' }, 'state Joined'],
    [{ wsrep_local_state_comment: 'Donor/Desynced' }, 'state Donor/Desynced'],
  ])('does not while %j', (change, message) => {
    expect(nodeStateOf('ON', { ...synced, ...change })).toMatchObject({
      status: 'not-ready',
      message,
    });
  });

  it('counts a server without Galera usable (wsrep off; MySQL has no wsrep_on)', () => {
    const alone = { wsrep_ready: 'OFF', wsrep_cluster_status: 'Disconnected' };
    expect(nodeStateOf('OFF', alone)).toEqual({ status: 'usable', wsrep: null });
    expect(nodeStateOf(undefined, {})).toEqual({ status: 'usable', wsrep: null });
  });

  it('prefers the first usable node in the process’s order', () => {
    const of = (...statuses: NodeState['status'][]) =>
      preferredNode(statuses.map((status) => ({ status, wsrep: null })));
    expect(of('usable', 'usable', 'usable')).toBe(0);
    expect(of('down', 'not-ready', 'usable')).toBe(2);
    expect(of('down', 'usable', 'usable')).toBe(1);
    expect(of('down', 'not-ready', 'unchecked')).toBe(-1);
  });
});
