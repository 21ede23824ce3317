import { IsString, Matches } from 'class-validator';
import { COLOR_PATTERN, IsName, IsNameUpdate, Optional } from '../../common/http/attributes';

export class CreateLabelRequest {
  @IsName()
  name!: string;

  @Optional()
  @Matches(COLOR_PATTERN)
  @IsString()
  color?: string;
}

export class UpdateLabelRequest {
  @IsNameUpdate()
  name?: string;

  @Optional()
  @Matches(COLOR_PATTERN)
  @IsString()
  color?: string;
}
