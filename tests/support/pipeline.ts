/** A prospect with one quotation at «Demo», made through the API as the screens make them. */
import type { Db } from "../../server/db/client";
import { type ApiClient, buildProduct } from "./factories";

export async function quotationAt(db: Db, api: ApiClient, name: string) {
  const product = await buildProduct(db, { name: `Producto ${name}` });
  const prospect = (await api.post("/api/v1/prospects", { prospect: { name } })).body.prospect;
  const q = (
    await api.post("/api/v1/quotations", {
      quotation: { contact_name: "Contacto", prospect_id: prospect.id, product_catalog_id: product.id },
    })
  ).body.quotation;
  return { q, prospect, product };
}
