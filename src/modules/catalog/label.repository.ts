import { Injectable } from '@nestjs/common';
import { RepositoryOf } from '../../common/database/tenant-repository';
import { Label } from './label.entity';

@Injectable()
export class LabelRepository extends RepositoryOf(Label) {}
