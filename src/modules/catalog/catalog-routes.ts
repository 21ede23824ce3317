import { Controller, Delete, Get, HttpCode, Post, Put, applyDecorators } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NUMERIC } from '../../common/http/route-catalog';
import { ApiView, type ViewSchema } from '../../common/openapi/view-schema';

/*
 * The routes every resource of the catalog has (`/labels`, `/labels/{id}`), each with its summary
 * (and a description where its behaviour needs one) and its answer. A write answers 200 with the
 * resource, a delete 204 without a body.
 */

/** A controller of the catalog's resources at `path`. */
export const CatalogController = (path: string) =>
  applyDecorators(ApiTags('catalog'), ApiBasicAuth(), Controller(path));

type View = ViewSchema;

const item = `:id${NUMERIC}`;

export const Route = {
  list: (summary: string, view: View, description?: string) =>
    applyDecorators(ApiOperation({ summary, description }), ApiView(view, { list: true }), Get()),
  get: (summary: string, view: View, description?: string) =>
    applyDecorators(ApiOperation({ summary, description }), ApiView(view), Get(item)),
  create: (summary: string, view: View, description?: string) =>
    applyDecorators(ApiOperation({ summary, description }), ApiView(view), Post(), HttpCode(200)),
  update: (summary: string, view: View, description?: string) =>
    applyDecorators(ApiOperation({ summary, description }), ApiView(view), Put(item)),
  delete: (summary: string, description?: string) =>
    applyDecorators(ApiOperation({ summary, description }), Delete(item), HttpCode(204)),
};
