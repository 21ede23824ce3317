import type { AppointmentTypeResource } from './appointment-type-links.entity';
import type { Resource } from './resource.entity';
import { id, int, list, text, viewSchema, type ViewType } from '../../common/openapi/view-schema';

/** `GET /resources`: a room or a piece of equipment the account's calendars share. */
export type ResourceView = ViewType<typeof RESOURCE_VIEW>;

/** `links`: the resource's links to live types, by type id ascending (see liveTypeLinks). */
export function toResourceView(
  resource: Resource,
  links: readonly AppointmentTypeResource[],
): ResourceView {
  return {
    id: resource.id,
    name: resource.name,
    quantity: resource.quantity,
    appointmentTypeIDs: links.map((link) => link.appointmentTypeId),
  };
}

export const RESOURCE_VIEW = viewSchema('ResourceView', {
  id: id(2),
  name: text('Treatment room'),
  quantity: int(3, 'How many units exist: at most this many appointments of its types overlap.'),
  appointmentTypeIDs: list(
    id(12),
    'The live appointment types each of whose appointments takes one unit, by id.',
  ),
});
