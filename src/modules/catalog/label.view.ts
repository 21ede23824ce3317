import type { Label } from './label.entity';
import { id, text, viewSchema, type ViewType } from '../../common/openapi/view-schema';

/** `GET /labels`, as clients of the reference service know it. */
export type LabelView = ViewType<typeof LABEL_VIEW>;

export function toLabelView(label: Label): LabelView {
  return { id: label.id, name: label.name, color: label.color };
}

export const LABEL_VIEW = viewSchema('LabelView', {
  id: id(2),
  name: text('Confirmed'),
  color: text('green', '`#RRGGBB` or a color name.'),
});
