import { unknownRoute } from "@/lib/http/route";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = unknownRoute();
