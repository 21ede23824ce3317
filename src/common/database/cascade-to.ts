import { ForeignKey, type ObjectType } from 'typeorm';

/** A foreign key whose row goes with the row it names (ON DELETE CASCADE). */
export const CascadeTo = <T>(entity: () => ObjectType<T>, name: string) =>
  ForeignKey(entity, { name, onDelete: 'CASCADE', onUpdate: 'RESTRICT' });
