import { IsString, Matches, MaxLength } from 'class-validator';
import {
  COLOR_PATTERN,
  IsNotBlank,
  IsNotCleared,
  Optional,
  Trim,
} from '../../common/http/attributes';

export class CreateLabelRequest {
  @Trim()
  @IsNotBlank()
  @MaxLength(255)
  @IsString()
  name!: string;

  @Optional()
  @Matches(COLOR_PATTERN)
  @IsString()
  color?: string;
}

export class UpdateLabelRequest {
  @Trim()
  @Optional()
  @IsNotCleared()
  @MaxLength(255)
  @IsString()
  name?: string;

  @Optional()
  @Matches(COLOR_PATTERN)
  @IsString()
  color?: string;
}
