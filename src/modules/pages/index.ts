/*
 * What other modules use of pages; they import it from here, not from the module's files.
 */
export { PagesModule } from './pages.module';
