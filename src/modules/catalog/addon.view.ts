import { formatCents } from '../../common/money/money';
import type { Addon } from './addon.entity';
import { flag, id, int, money, text, viewSchema } from '../../common/openapi/view-schema';

/** `GET /appointment-addons`, as clients of the reference service know it. */
export interface AddonView {
  id: number;
  name: string;
  /** Minutes. */
  duration: number;
  price: string;
  private: boolean;
}

export function toAddonView(addon: Addon): AddonView {
  return {
    id: addon.id,
    name: addon.name,
    duration: addon.duration,
    price: formatCents(addon.priceCents),
    private: addon.private,
  };
}

export const ADDON_VIEW = viewSchema<AddonView>('AddonView', {
  id: id(3),
  name: text('Deep conditioning'),
  duration: int(15, 'Minutes.'),
  price: money('10.00'),
  private: flag(false, 'Hidden from clients.'),
});
