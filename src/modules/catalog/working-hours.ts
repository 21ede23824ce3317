export type DayName =
  'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';

export interface Interval {
  start: string;
  end: string;
}
export type WeeklyHours = Partial<Record<DayName, Interval[]>>;
export type DateOverrides = Record<string, Interval[]>;
