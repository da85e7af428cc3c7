// A tiny Plant Store client: the kind of code a contract test against the stub drives.
export interface NewPlant {
  id: number;
  name: string;
  tag?: string;
}

export interface Plant {
  name: string;
  tag?: string;
}

/** The API's documented error ({error, message}) with the HTTP status it came with. */
export class PlantStoreError extends Error {
  constructor(readonly status: number, readonly code: number, message: string) {
    super(message);
    this.name = 'PlantStoreError';
  }
}

export async function createPlant(baseUrl: string, token: string, plant: NewPlant): Promise<Plant> {
  const response = await fetch(`${baseUrl}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(plant),
  });
  const body = await response.json();
  if (!response.ok) throw new PlantStoreError(response.status, body.error, body.message);
  return body as Plant;
}
