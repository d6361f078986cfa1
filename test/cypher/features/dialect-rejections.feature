Feature: Dialect rejections happen at compile time, before anything runs

  Scenario: Procedure calls are rejected
    Given an empty graph
    When executing query:
      """
      CALL db.labels()
      """
    Then a SyntaxError should be raised at compile time: UnsupportedProcedureCall

  Scenario: Procedure calls inside a query are rejected and nothing is written
    Given an empty graph
    When executing query:
      """
      CREATE (n:A)
      WITH n
      CALL db.labels() YIELD label
      RETURN label
      """
    Then a SyntaxError should be raised at compile time: UnsupportedProcedureCall
    And no side effects

  Scenario: LOAD CSV is rejected
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///people.csv' AS row
      CREATE (:Person {name: row[0]})
      """
    Then a SyntaxError should be raised at compile time: UnsupportedClause
    And no side effects

  Scenario: EXISTS subqueries are rejected
    Given an empty graph
    When executing query:
      """
      MATCH (n)
      WHERE EXISTS { MATCH (n)-->() }
      RETURN n
      """
    Then a SyntaxError should be raised at compile time: UnsupportedSubquery

  Scenario: The exists() function is rejected
    Given an empty graph
    When executing query:
      """
      MATCH (n)
      WHERE exists(n.name)
      RETURN n
      """
    Then a SyntaxError should be raised at compile time: UnsupportedExists

  Scenario: Bare pattern predicates are the supported existence check
    Given an empty graph
    And having executed:
      """
      CREATE (:A {name: 'a'})-[:R]->(:B), (:A {name: 'lonely'})
      """
    When executing query:
      """
      MATCH (n:A)
      WHERE (n)-[:R]->()
      RETURN n.name AS name
      """
    Then the result should be, in any order:
      | name |
      | 'a'  |
    And no side effects

  Scenario: A runtime error rolls back every write of the query
    Given an empty graph
    When executing query:
      """
      CREATE (:A {num: 1})
      WITH 1 AS one
      UNWIND [1, 0] AS d
      RETURN one / d AS q
      """
    Then a ArithmeticError should be raised at runtime: DivisionByZero
    And no side effects

  Scenario: Integer overflow is an error, never a silent wrap
    Given any graph
    When executing query:
      """
      RETURN 9223372036854775807 + 1 AS x
      """
    Then a ArithmeticError should be raised at runtime: IntegerOverflow

  Scenario: Integers and floats stay apart
    Given any graph
    When executing query:
      """
      RETURN 7 / 2 AS i, 7 / 2.0 AS f, 9223372036854775807 AS big
      """
    Then the result should be, in any order:
      | i | f   | big                 |
      | 3 | 3.5 | 9223372036854775807 |
    And no side effects
