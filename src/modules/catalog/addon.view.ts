import { formatCents } from '../../common/money/money';
import type { Addon } from './addon.entity';

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
