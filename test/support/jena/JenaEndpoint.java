import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.apache.jena.graph.Graph;
import org.apache.jena.graph.Node;
import org.apache.jena.graph.NodeFactory;
import org.apache.jena.query.DatasetFactory;
import org.apache.jena.query.Query;
import org.apache.jena.query.QueryExecution;
import org.apache.jena.query.QueryExecutionFactory;
import org.apache.jena.query.QueryFactory;
import org.apache.jena.query.QueryParseException;
import org.apache.jena.query.ResultSetFormatter;
import org.apache.jena.query.Syntax;
import org.apache.jena.riot.Lang;
import org.apache.jena.riot.RDFDataMgr;
import org.apache.jena.riot.RDFLanguages;
import org.apache.jena.riot.RiotException;
import org.apache.jena.sparql.core.DatasetGraph;
import org.apache.jena.sparql.core.DynamicDatasets;
import org.apache.jena.sparql.core.Quad;
import org.apache.jena.system.Txn;
import org.apache.jena.update.UpdateAction;
import org.apache.jena.update.UpdateFactory;

/**
 * A SPARQL 1.1 Protocol endpoint over Apache Jena ARQ, for the test harness: what Fuseki would
 * answer, on the JDK's own HTTP server (Fuseki is not packaged by Debian). One in-memory
 * transactional dataset; Fuseki's layout under {@code /ds}:
 *
 * <ul>
 *   <li>{@code /ds/sparql} (also {@code /ds}, {@code /ds/query}, {@code /ds/update}): queries by GET,
 *       by POST as a form or as {@code application/sparql-query}; updates by POST as a form or as
 *       {@code application/sparql-update}; {@code default-graph-uri} and {@code named-graph-uri}
 *       honoured as Fuseki does (a dynamic dataset over the stored graphs);
 *   <li>{@code /ds/data?graph=IRI} or {@code ?default}: the Graph Store Protocol (GET, PUT, POST,
 *       DELETE), which the project's loader finds from the endpoint's URL as it does for Fuseki.
 * </ul>
 *
 * Flags: {@code --port N} (0, the default: a free one, printed as {@code listening on N});
 * {@code --collation LOCALE}: order text by that locale's collator ({@link Collation}), as some
 * engines do, so that a test can show what the server says about such an engine.
 */
public final class JenaEndpoint {
  private static final String RESULTS_JSON = "application/sparql-results+json; charset=utf-8";
  private static final String N_TRIPLES = "application/n-triples; charset=utf-8";

  private final DatasetGraph dataset = DatasetFactory.createTxnMem().asDatasetGraph();
  private final Collation collation;

  private JenaEndpoint(Collation collation) {
    this.collation = collation;
  }

  public static void main(String[] args) throws IOException {
    int port = 0;
    String locale = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--collation" -> locale = args[++i];
        default -> throw new IllegalArgumentException("unknown flag " + args[i]);
      }
    }
    JenaEndpoint endpoint = new JenaEndpoint(locale == null ? null : new Collation(locale));
    // TCP_NODELAY: the JDK's server writes an answer's headers and body apart, and with Nagle's
    // algorithm the body waited for the client's delayed ACK, up to 40 ms an answer (the
    // cursor-pagination suite on Jena: 134 s, 37 s with it).
    System.setProperty("sun.net.httpserver.nodelay", "true");
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
    for (String path : List.of("/ds", "/ds/sparql", "/ds/query", "/ds/update")) {
      server.createContext(path, exchange -> endpoint.answer(exchange, endpoint::protocol));
    }
    server.createContext("/ds/data", exchange -> endpoint.answer(exchange, endpoint::graphStore));
    // As many request threads as Virtuoso's in the harness: queries overlap, updates take turns.
    server.setExecutor(Executors.newFixedThreadPool(8));
    server.start();
    System.out.println("listening on " + server.getAddress().getPort());
    System.out.flush();
    // The harness holds our stdin open: when it closes (the harness stopped us, or died without
    // stopping us), we stop too, so no endpoint outlives its test run.
    System.in.transferTo(OutputStream.nullOutputStream());
    System.exit(0);
  }

  /** What a handler answers: a status, a media type and a body. */
  private record Answer(int status, String type, byte[] body) {
    static Answer text(int status, String message) {
      return new Answer(status, "text/plain; charset=utf-8", (message + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  private interface Handler {
    Answer handle(HttpExchange exchange, Map<String, List<String>> params, byte[] body) throws IOException;
  }

  /** Runs a handler; a syntax error is the client's (400), anything else the store's (500). */
  private void answer(HttpExchange exchange, Handler handler) throws IOException {
    Answer answer;
    try (InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readAllBytes();
      Map<String, List<String>> params = new LinkedHashMap<>();
      parseForm(exchange.getRequestURI().getRawQuery(), params);
      if (contentType(exchange).equals("application/x-www-form-urlencoded")) {
        parseForm(new String(body, StandardCharsets.UTF_8), params);
      }
      answer = handler.handle(exchange, params, body);
    } catch (QueryParseException | RiotException | IllegalArgumentException error) {
      answer = Answer.text(400, "Bad request: " + error.getMessage());
    } catch (RuntimeException error) {
      answer = Answer.text(500, "Error: " + error);
    }
    exchange.getResponseHeaders().set("Content-Type", answer.type());
    if (answer.body().length == 0) {
      exchange.sendResponseHeaders(answer.status(), -1);
    } else {
      exchange.sendResponseHeaders(answer.status(), answer.body().length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer.body());
      }
    }
    exchange.close();
  }

  /** The SPARQL 1.1 Protocol: a query or an update, by whichever of its forms it came. */
  private Answer protocol(HttpExchange exchange, Map<String, List<String>> params, byte[] body) {
    String method = exchange.getRequestMethod();
    String type = contentType(exchange);
    String text = new String(body, StandardCharsets.UTF_8);
    if (method.equals("GET") && params.containsKey("query")) return query(one(params, "query"), params);
    if (!method.equals("POST")) return Answer.text(405, "Use GET or POST");
    if (type.equals("application/sparql-query")) return query(text, params);
    if (type.equals("application/sparql-update")) return update(text);
    if (params.containsKey("query")) return query(one(params, "query"), params);
    if (params.containsKey("update")) return update(one(params, "update"));
    return Answer.text(type.isEmpty() ? 400 : 415, "No query or update in the request");
  }

  private Answer query(String text, Map<String, List<String>> params) {
    Query query = QueryFactory.create(text, Syntax.syntaxARQ);
    if (collation != null) collation.apply(query);
    List<Node> defaults = iris(params.get("default-graph-uri"));
    List<Node> named = iris(params.get("named-graph-uri"));
    if (defaults.isEmpty() && named.isEmpty() && query.hasDatasetDescription()) {
      defaults = iris(query.getGraphURIs());
      named = iris(query.getNamedGraphURIs());
    }
    query.getGraphURIs().clear();
    query.getNamedGraphURIs().clear();
    // Fuseki's answer to a dataset description: the named graphs it names, the default graph their merge.
    DatasetGraph target =
        defaults.isEmpty() && named.isEmpty()
            ? dataset
            : DynamicDatasets.dynamicDataset(defaults, named, dataset, false);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String type =
        Txn.calculateRead(
            dataset,
            () -> {
              try (QueryExecution execution = QueryExecutionFactory.create(query, DatasetFactory.wrap(target))) {
                if (query.isSelectType()) {
                  ResultSetFormatter.outputAsJSON(out, execution.execSelect());
                  return RESULTS_JSON;
                }
                if (query.isAskType()) {
                  ResultSetFormatter.outputAsJSON(out, execution.execAsk());
                  return RESULTS_JSON;
                }
                Graph graph = query.isConstructType() ? execution.execConstruct().getGraph() : execution.execDescribe().getGraph();
                RDFDataMgr.write(out, graph, Lang.NTRIPLES);
                return N_TRIPLES;
              }
            });
    return new Answer(200, type, out.toByteArray());
  }

  private Answer update(String text) {
    var request = UpdateFactory.create(text, Syntax.syntaxARQ);
    Txn.executeWrite(dataset, () -> UpdateAction.execute(request, dataset));
    return Answer.text(200, "Update succeeded"); // as Fuseki answers
  }

  /** The Graph Store Protocol on one graph: `?graph=IRI` or `?default`. */
  private Answer graphStore(HttpExchange exchange, Map<String, List<String>> params, byte[] body) {
    Node name;
    if (params.containsKey("default")) name = Quad.defaultGraphIRI;
    else if (params.containsKey("graph")) name = NodeFactory.createURI(one(params, "graph"));
    else return Answer.text(400, "Name a graph: ?graph=IRI or ?default");
    String method = exchange.getRequestMethod();
    if (method.equals("GET")) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Txn.executeRead(dataset, () -> RDFDataMgr.write(out, dataset.getGraph(name), Lang.NTRIPLES));
      return new Answer(200, N_TRIPLES, out.toByteArray());
    }
    if (method.equals("DELETE")) {
      Txn.executeWrite(dataset, () -> dataset.getGraph(name).clear());
      return new Answer(204, "text/plain", new byte[0]);
    }
    if (!method.equals("POST") && !method.equals("PUT")) return Answer.text(405, "Use GET, PUT, POST or DELETE");
    Lang lang = RDFLanguages.contentTypeToLang(contentType(exchange));
    if (lang == null || RDFLanguages.isQuads(lang)) return Answer.text(415, "Send triples: Turtle or N-Triples");
    Txn.executeWrite(
        dataset,
        () -> {
          Graph graph = dataset.getGraph(name);
          if (method.equals("PUT")) graph.clear();
          RDFDataMgr.read(graph, new java.io.ByteArrayInputStream(body), lang);
        });
    return Answer.text(200, "Stored");
  }

  private static String contentType(HttpExchange exchange) {
    String value = exchange.getRequestHeaders().getFirst("Content-Type");
    return value == null ? "" : value.split(";")[0].trim().toLowerCase();
  }

  private static void parseForm(String raw, Map<String, List<String>> params) {
    if (raw == null || raw.isEmpty()) return;
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      params.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
    }
  }

  private static String one(Map<String, List<String>> params, String key) {
    List<String> values = params.get(key);
    if (values.size() != 1) throw new IllegalArgumentException("Give one " + key);
    return values.get(0);
  }

  private static List<Node> iris(List<String> values) {
    List<Node> nodes = new ArrayList<>();
    if (values != null) for (String value : values) nodes.add(NodeFactory.createURI(value));
    return nodes;
  }
}
