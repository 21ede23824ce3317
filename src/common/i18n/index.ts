export * from './languages';
export * from './messages';
export * from './formats';
export * from './negotiate';
