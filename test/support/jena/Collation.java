import java.util.ArrayList;
import java.util.List;
import org.apache.jena.query.Query;
import org.apache.jena.query.SortCondition;
import org.apache.jena.graph.NodeFactory;
import org.apache.jena.sparql.expr.E_Conditional;
import org.apache.jena.sparql.expr.E_Datatype;
import org.apache.jena.sparql.expr.E_Function;
import org.apache.jena.sparql.expr.E_IsLiteral;
import org.apache.jena.sparql.expr.E_LogicalAnd;
import org.apache.jena.sparql.expr.E_OneOf;
import org.apache.jena.sparql.expr.Expr;
import org.apache.jena.sparql.expr.ExprList;
import org.apache.jena.sparql.expr.NodeValue;
import org.apache.jena.sparql.syntax.ElementSubQuery;
import org.apache.jena.sparql.syntax.ElementVisitorBase;
import org.apache.jena.sparql.syntax.ElementWalker;

/**
 * Makes an endpoint order text by a locale's collation, as some engines do (GraphDB, Stardog and
 * others can be set up so), instead of by code point as SPARQL's operators order strings. Every
 * ORDER BY key of a query and of its subqueries becomes
 * {@code IF(isLiteral(key) && DATATYPE(key) IN (xsd:string, rdf:langString),
 * arq:collation("LOCALE", key), key)}: ARQ's own collation function (a sort key from
 * {@link java.text.Collator}) for text, the key unchanged for anything else (it would collate a
 * number's digits as text).
 * Comparisons in FILTER are left as they are, as on such engines.
 */
final class Collation {
  private static final String FUNCTION = "http://jena.apache.org/ARQ/function#collation";
  private static final ExprList TEXT_TYPES =
      new ExprList(
          List.of(
              NodeValue.makeNode(NodeFactory.createURI("http://www.w3.org/2001/XMLSchema#string")),
              NodeValue.makeNode(
                  NodeFactory.createURI("http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"))));
  private final NodeValue locale;

  Collation(String locale) {
    this.locale = NodeValue.makeString(locale);
  }

  /** Rewrites the ORDER BY keys of `query` and of every subquery in it, in place. */
  void apply(Query query) {
    if (query.hasOrderBy()) {
      List<SortCondition> conditions = new ArrayList<>(query.getOrderBy());
      query.getOrderBy().clear();
      for (SortCondition condition : conditions) {
        query.addOrderBy(collated(condition.getExpression()), condition.getDirection());
      }
    }
    if (query.getQueryPattern() == null) return;
    ElementWalker.walk(
        query.getQueryPattern(),
        new ElementVisitorBase() {
          @Override
          public void visit(ElementSubQuery element) {
            apply(element.getQuery());
          }
        });
  }

  private Expr collated(Expr key) {
    Expr sortKey = new E_Function(FUNCTION, new ExprList(List.of(locale, key)));
    Expr text = new E_LogicalAnd(new E_IsLiteral(key), new E_OneOf(new E_Datatype(key), TEXT_TYPES));
    return new E_Conditional(text, sortKey, key);
  }
}
