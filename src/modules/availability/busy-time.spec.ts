import { utcMillis } from './busy-time';

describe('utcMillis', () => {
  it('reads MariaDB (milliseconds) and MySQL (microseconds) JSON datetimes as Date.parse does', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 2000; i++) {
      const instant = Math.floor(
        Date.UTC(1000, 0, 1) + random() * (Date.UTC(9999, 11, 31) - Date.UTC(1000, 0, 1)),
      );
      const iso = new Date(instant).toISOString(); // 2031-01-01T09:00:00.123Z
      const mariadb = `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
      expect(utcMillis(mariadb)).toBe(instant);
      expect(utcMillis(`${mariadb}456`)).toBe(instant);
      expect(utcMillis(`${iso.slice(0, 10)} ${iso.slice(11, 19)}`)).toBe(
        Math.floor(instant / 1000) * 1000,
      );
    }
  });

  it('reads what is not in the expected shape the general way', () => {
    expect(utcMillis('2031-01-01 09:00:00.5')).toBe(Date.parse('2031-01-01T09:00:00.5Z'));
  });
});
