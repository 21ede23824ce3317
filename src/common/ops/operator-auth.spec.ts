import { isOperator } from './operator-auth';

const operator = { user: 'ops', password: 'correct horse battery' };
const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('isOperator', () => {
  it.each([
    ['the credentials', basic('ops:correct horse battery'), true],
    ['the scheme in any case', `bAsIc ${basic('ops:correct horse battery').slice(6)}`, true],
    ['no header', undefined, false],
    ['another scheme', 'Bearer abc', false],
    ['a wrong password', basic('ops:correct horse batter'), false],
    ['a wrong user', basic('op:correct horse battery'), false],
    ['the password alone', basic('correct horse battery'), false],
    ['a colon moved', basic('ops:correct:horse battery'), false],
    ['garbage', 'Basic %%%', false],
  ])('%s → %s', (_name, header, expected) => {
    expect(isOperator(header, operator)).toBe(expected);
  });
});
