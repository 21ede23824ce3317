import { parseQuery } from './request-parsing';
import { toIdList } from './id-list';

describe('toIdList', () => {
  it.each([
    ['addonIDs[]=1&addonIDs[]=2', [1, 2]],
    ['addonIDs[0]=1&addonIDs[1]=2', [1, 2]],
    ['addonIDs=1,2', [1, 2]],
    ['addonIDs=1, 2', [1, 2]],
    ['addonIDs=7', [7]],
    ['addonIDs=1&addonIDs=2', [1, 2]],
    ['addonIDs[0]=3&addonIDs[150]=4', [3, 4]],
    ['addonIDs=', []],
  ])('reads %s as %j', (query, ids) => {
    expect(toIdList(parseQuery(query).addonIDs)).toEqual(ids);
  });

  it('keeps what is not an id so that validation refuses it', () => {
    expect(toIdList('1,x')).toEqual([1, 'x']);
    expect(toIdList(['-1'])).toEqual(['-1']);
    expect(toIdList(undefined)).toBeUndefined();
  });
});
