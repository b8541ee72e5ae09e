export async function batchRows() { return []; }
