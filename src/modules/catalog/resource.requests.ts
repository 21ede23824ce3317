import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { IsName, IsNameUpdate, Optional } from '../../common/http/attributes';
import { IsIdList } from '../../common/http/id-list';
import { IsIntBetween } from './catalog-attributes';

/** Units of one resource: enough for a clinic's rooms or a gym's mats, within the SMALLINT. */
const MAX_QUANTITY = 1000;

const QUANTITY = 'How many units exist: at most this many appointments of its types overlap.';

/** The attributes create and update share, validated after those each declares. */
class ResourceAttributes {
  /** The types whose appointments take a unit of it; an update replaces the list whole. */
  @ApiPropertyOptional({
    description:
      'The live appointment types each of whose appointments takes one unit of it; given, it ' +
      'replaces the links whole (`[]`: none).',
    example: [12],
  })
  @Optional()
  @IsIdList()
  appointmentTypeIDs?: number[];
}

export class CreateResourceRequest extends ResourceAttributes {
  @IsName()
  name!: string;

  @ApiProperty({ description: QUANTITY, example: 3 })
  @Max(MAX_QUANTITY)
  @Min(1)
  @IsInt()
  quantity!: number;
}

export class UpdateResourceRequest extends ResourceAttributes {
  @IsNameUpdate()
  name?: string;

  @ApiPropertyOptional({ description: QUANTITY, example: 3 })
  @IsIntBetween(1, MAX_QUANTITY)
  quantity?: number;
}
