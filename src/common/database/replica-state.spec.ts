import { replicaStateOf } from './replica-state';

const running = { Slave_IO_Running: 'Yes', Slave_SQL_Running: 'Yes', Seconds_Behind_Master: 0 };

describe('replicaStateOf', () => {
  it.each([
    [running, { status: 'serving', lagSeconds: 0 }],
    [
      { ...running, Seconds_Behind_Master: 2 },
      { status: 'serving', lagSeconds: 2 },
    ],
    [
      { ...running, Seconds_Behind_Master: 3 },
      { status: 'lagging', lagSeconds: 3, message: '3 s behind the primary (bound 2 s)' },
    ],
    [
      { ...running, Seconds_Behind_Master: null },
      { status: 'stopped', lagSeconds: null, message: 'lag unknown (Seconds_Behind_Master NULL)' },
    ],
    [
      { ...running, Slave_SQL_Running: 'No', Last_SQL_Error: "Duplicate entry '7'" },
      {
        status: 'stopped',
        lagSeconds: 0,
        message: "replication not running (IO Yes, SQL No): Duplicate entry '7'",
      },
    ],
    [
      { ...running, Slave_IO_Running: 'Connecting', Seconds_Behind_Master: null },
      {
        status: 'stopped',
        lagSeconds: null,
        message: 'replication not running (IO Connecting, SQL Yes)',
      },
    ],
    [
      undefined,
      { status: 'stopped', lagSeconds: null, message: 'not a replica (no replication set up)' },
    ],
  ])('%j with a 2 s bound → %j', (row, state) => {
    expect(replicaStateOf(row, 2)).toEqual(state);
  });
});
