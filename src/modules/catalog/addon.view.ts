import { formatCents } from '../../common/money/money';
import type { Addon } from './addon.entity';
import {
  flag,
  id,
  int,
  money,
  text,
  viewSchema,
  type ViewType,
} from '../../common/openapi/view-schema';

/** `GET /appointment-addons`, as clients of the reference service know it. */
export type AddonView = ViewType<typeof ADDON_VIEW>;

export function toAddonView(addon: Addon): AddonView {
  return {
    id: addon.id,
    name: addon.name,
    duration: addon.duration,
    price: formatCents(addon.priceCents),
    private: addon.private,
  };
}

export const ADDON_VIEW = viewSchema('AddonView', {
  id: id(3),
  name: text('Deep conditioning'),
  duration: int(15, 'Minutes.'),
  price: money('10.00'),
  private: flag(false, 'Hidden from clients.'),
});
