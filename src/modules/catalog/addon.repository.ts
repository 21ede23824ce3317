import { Injectable } from '@nestjs/common';
import { Addon } from './addon.entity';
import { RepositoryOf } from '../../common/database/tenant-repository';

@Injectable()
export class AddonRepository extends RepositoryOf(Addon) {}
