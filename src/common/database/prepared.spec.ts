import { expandLists } from './prepared';

describe('expandLists: one value per placeholder', () => {
  it('leaves a statement without lists as it is', () => {
    expect(expandLists('SELECT ? + ?', [1, 2])).toEqual({ text: 'SELECT ? + ?', values: [1, 2] });
  });

  it('writes a placeholder per item of a list, in place', () => {
    const at = new Date(0);
    expect(expandLists('WHERE a = ? AND id IN (?) AND b < ?', ['x', [3, 1, 2], at])).toEqual({
      text: 'WHERE a = ? AND id IN (?, ?, ?) AND b < ?',
      values: ['x', 3, 1, 2, at],
    });
  });

  it('refuses an empty list (IN () is not SQL) and a count that does not match', () => {
    expect(() => expandLists('id IN (?)', [[]])).toThrow('An empty list');
    expect(() => expandLists('id IN (?) AND ?', [[1]])).toThrow('2 placeholders for 1 values');
  });
});
