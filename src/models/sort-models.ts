import type { LocalModel } from './local-models.js';

/** Loaded models first, then by name (what a picker shows). */
export function sortModels(models: LocalModel[]): LocalModel[] {
  return models.sort(
    (a, b) => Number(b.loaded === true) - Number(a.loaded === true) || a.name.localeCompare(b.name),
  );
}
