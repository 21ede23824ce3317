import type { Label } from './label.entity';

/** `GET /labels`, as clients of the reference service know it. */
export interface LabelView {
  id: number;
  name: string;
  color: string;
}

export function toLabelView(label: Label): LabelView {
  return { id: label.id, name: label.name, color: label.color };
}
