import { EpochCache } from './epoch-cache';

const NOW = Date.UTC(2030, 5, 1, 12);
const answer = () => [{ time: '2030-06-03T09:00:00-0400', slotsAvailable: 1 }];

class AvailabilityAnswers extends EpochCache<string, ReturnType<typeof answer>> {}

describe('EpochCache (as AvailabilityAnswers)', () => {
  it('serves an answer under the epoch it was kept with, until its end, and drops it after', () => {
    const answers = new AvailabilityAnswers(60_000);
    answers.keep('k', 'e1', { answer: answer(), validUntil: NOW + 10_000 }, NOW);
    expect(answers.get('k', 'e1', NOW + 10_000)).toEqual(answer());
    expect(answers.get('k', 'e2', NOW)).toBeUndefined();
    // A stale epoch dropped it: the right epoch finds nothing either.
    expect(answers.get('k', 'e1', NOW)).toBeUndefined();
    answers.keep('k', 'e1', { answer: answer(), validUntil: NOW + 10_000 }, NOW);
    expect(answers.get('k', 'e1', NOW + 10_001)).toBeUndefined();
  });

  it('keeps an answer at most the ttl, and nothing that is already invalid or with ttl 0', () => {
    const answers = new AvailabilityAnswers(60_000);
    answers.keep('k', 'e', { answer: answer(), validUntil: Infinity }, NOW);
    expect(answers.get('k', 'e', NOW + 60_000)).toEqual(answer());
    expect(answers.get('k', 'e', NOW + 60_001)).toBeUndefined();
    answers.keep('k', 'e', { answer: answer(), validUntil: NOW }, NOW);
    expect(answers.get('k', 'e', NOW)).toBeUndefined();
    const none = new AvailabilityAnswers(0);
    none.keep('k', 'e', { answer: answer(), validUntil: Infinity }, NOW);
    expect(none.get('k', 'e', NOW)).toBeUndefined();
  });

  it('drops the oldest kept answer beyond maxEntries, and freezes what it shares', () => {
    const answers = new AvailabilityAnswers(60_000, 2);
    for (const key of ['a', 'b', 'c'])
      answers.keep(key, 'e', { answer: answer(), validUntil: Infinity }, NOW);
    expect(['a', 'b', 'c'].map((key) => answers.get(key, 'e', NOW) !== undefined)).toEqual([
      false,
      true,
      true,
    ]);
    const kept = answers.get('c', 'e', NOW)!;
    expect(Object.isFrozen(kept) && Object.isFrozen(kept[0])).toBe(true);
  });
});
