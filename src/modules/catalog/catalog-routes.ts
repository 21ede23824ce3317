import { Controller, Delete, Get, HttpCode, Post, Put, applyDecorators } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NUMERIC } from '../../common/http/route-catalog';
import { ApiView, type ViewSchema } from '../../common/openapi/view-schema';

/*
 * The routes every resource of the catalog has (`/labels`, `/labels/{id}`), each with its summary
 * and its answer. A write answers 200 with the resource, a delete 204 without a body.
 */

/** A controller of the catalog's resources at `path`. */
export const CatalogController = (path: string) =>
  applyDecorators(ApiTags('catalog'), ApiBasicAuth(), Controller(path));

type View = ViewSchema;

const item = `:id${NUMERIC}`;

export const Route = {
  list: (summary: string, view: View) =>
    applyDecorators(ApiOperation({ summary }), ApiView(view, { list: true }), Get()),
  get: (summary: string, view: View) =>
    applyDecorators(ApiOperation({ summary }), ApiView(view), Get(item)),
  create: (summary: string, view: View) =>
    applyDecorators(ApiOperation({ summary }), ApiView(view), Post(), HttpCode(200)),
  update: (summary: string, view: View) =>
    applyDecorators(ApiOperation({ summary }), ApiView(view), Put(item)),
  delete: (summary: string) =>
    applyDecorators(ApiOperation({ summary }), Delete(item), HttpCode(204)),
};
